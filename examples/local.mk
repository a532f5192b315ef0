# examples/local.mk: example syslets, shipped and checked by tests/compiler/examples.sh.
EXTRA_DIST += examples/hello.syslet examples/cat.syslet examples/copy.syslet \
	examples/linkcat.c \
	examples/countdown.syslet examples/server.syslet
