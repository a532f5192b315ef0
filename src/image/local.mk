# src/image/local.mk: the .slo image model (reader/writer to come; see image.h).
noinst_HEADERS += src/image/image.h src/image/slo-format.h
