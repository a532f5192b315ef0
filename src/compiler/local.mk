# src/compiler/local.mk: layout, emit and the sysletc command (to come; see ir.h).
noinst_HEADERS += src/compiler/ir.h
