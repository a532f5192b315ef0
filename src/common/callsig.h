/* callsig.h: each system call's arguments by kind (callsig.c lists the letters). */
#ifndef SYSLET_CALLSIG_H
#define SYSLET_CALLSIG_H

#include <stdbool.h>

/* The kinds of what the call writes that are addresses. */
#define CALLSIG_OUT_PTR "rPcEtWSUAlRXJGqvNMjHO"
/* The kinds of what the call writes, shown once it returned; B, an
 * ioctl's argument, is an address only for some requests. */
#define CALLSIG_OUT CALLSIG_OUT_PTR "B"
/* The kinds that are addresses: 0 is NULL, as strace writes it. */
#define CALLSIG_PTR "pswrakKiLIQVhegy" CALLSIG_OUT_PTR

/* The letters of @call's arguments, or NULL for a call not described. */
const char *callsig_of(const char *call);
/* Argument @arg of @call is an address (a buffer, a string, a struct). */
bool callsig_pointer(const char *call, unsigned int arg);

/* poll's event bits, strace's way: "POLLIN|POLLOUT", the rest in hex;
 * false when no name applies. */
bool callsig_poll_events(unsigned int ev, char *buf, size_t len);

#endif /* SYSLET_CALLSIG_H */
