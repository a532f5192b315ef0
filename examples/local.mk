# examples/local.mk: example syslets, shipped, installed beside the documentation (the man pages run them) and checked by tests/compiler/examples.sh.
examplesdir = $(docdir)/examples
dist_examples_DATA = examples/hello.syslet examples/cat.syslet \
	examples/copy.syslet examples/linkcat.c \
	examples/countdown.syslet examples/server.syslet examples/http.syslet
