#!/bin/sh
# readme.sh: runs every "$ command" of README's "Running a syslet" section and compares its output with the lines under it.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

# The commands say ./sysletc, ./syslet-run and examples/, as from the
# top of the tree: give them those names here.
printf '#!/bin/sh\nexec %s "$@"\n' "$SYSLETC" >sysletc
printf '#!/bin/sh\nexec %s "$@"\n' "$SYSLET_RUN" >syslet-run
chmod +x sysletc syslet-run
ln -s "$top_srcdir/examples" examples

# Split the section into case files: cmd.N (the command) and exp.N (the
# lines shown under it, indentation removed).
awk '
	/^## / { on = ($0 == "## Running a syslet"); next }
	!on { next }
	/^    \$ / { n++; sub(/^    \$ /, ""); print > ("cmd." n); close("cmd." n);
		    printf "" > ("exp." n); close("exp." n); cur = n; next }
	/^    / && cur { sub(/^    /, ""); print >> ("exp." cur); close("exp." cur); next }
	{ cur = 0 }
	END { print n > "count" }
' "$top_srcdir/README.md"
n=$(cat count)
[ "$n" -ge 5 ] || fail "found only ${n:-no} commands in README's Running a syslet"

i=1
while [ "$i" -le "$n" ]; do
	cmd=$(cat "cmd.$i")
	sh -c "$cmd" >"out.$i" 2>"err.$i" ||
		fail "README command '$cmd' exited $? ($(cat "err.$i"))"
	diff -u "exp.$i" "out.$i" >"diff.$i" ||
		fail "README command '$cmd' printed something else:
$(cat "diff.$i")"
	i=$((i + 1))
done
