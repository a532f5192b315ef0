# tests/man.mk: checks of the man pages (mandoc lint; options against --help).
TESTS += tests/man-lint.sh
EXTRA_DIST += tests/man-lint.sh
AM_TESTS_ENVIRONMENT += MAN_LINT='$(MAN_LINT)'; export MAN_LINT;
TESTS += tests/man-api.sh
EXTRA_DIST += tests/man-api.sh
AM_TESTS_ENVIRONMENT += MAN_LINKS='$(syslet_man3_links)'; export MAN_LINKS;
TESTS += tests/man-options.sh
EXTRA_DIST += tests/man-options.sh
TESTS += tests/man-example.sh
EXTRA_DIST += tests/man-example.sh
TESTS += tests/man-link.sh
EXTRA_DIST += tests/man-link.sh
TESTS += tests/man-consts.sh
EXTRA_DIST += tests/man-consts.sh
TESTS += tests/man-rpath.sh
EXTRA_DIST += tests/man-rpath.sh
TESTS += tests/header-std.sh
EXTRA_DIST += tests/header-std.sh
TESTS += tests/install-prefix.sh
EXTRA_DIST += tests/install-prefix.sh
