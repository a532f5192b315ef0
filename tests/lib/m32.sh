# m32.sh: whether 32-bit programs run here, for the tests that need them (source it; POSIX sh).
# Building with -m32 is not enough: a kernel without ia32 emulation
# (ia32_emulation=0, "32-bit emulation disabled") refuses to exec them.
# tests/lib/m32.status holds the probe's answer, made once per make check
# (tests/local.mk); SYSLET_M32=no forces the answer to no, so that the
# skips can be tested where 32-bit programs do run.

# m32_runs: true if 32-bit programs run here; else false, with the reason
# in $m32_why.
m32_runs() {
	if [ "${SYSLET_M32:-}" = no ]; then
		m32_why="32-bit programs forced off (SYSLET_M32=no)"
		return 1
	fi
	m32_status=$(cat "$top_builddir/tests/lib/m32.status" 2>/dev/null) ||
		m32_status="no: the probe did not run (no tests/lib/m32.status)"
	[ "$m32_status" = yes ] && return 0
	m32_why=${m32_status#no: }
	return 1
}

# m32_elf FILE: true if FILE is a 32-bit ELF program.
m32_elf() {
	[ "$(od -An -tx1 -N5 "$1" 2>/dev/null | tr -d ' \n')" = 7f454c4601 ]
}
