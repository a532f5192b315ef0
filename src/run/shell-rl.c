/* shell-rl.c: loading GNU readline when a shell starts on a terminal (dlopen), by the name configure found. */
#include "config.h"

#define SHL_RL_NO_NAMES
#include "run/shell-rl.h"

#ifdef SHL_READLINE_SONAME
#include <dlfcn.h>
#include <stdbool.h>

struct shl_rl shl_rl;

int shl_rl_load(char *err, size_t len)
{
	static bool loaded;
	void *h;

	if (loaded)
		return 0;
	/* Global: readline's own modules and terminfo bind to it. */
	h = dlopen(SHL_READLINE_SONAME, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		snprintf(err, len, "cannot load readline: %s", dlerror());
		return -1;
	}
#define SHL_RL_LOOKUP(name)						\
	shl_rl.name = (__typeof__(shl_rl.name))dlsym(h, #name);		\
	if (!shl_rl.name) {						\
		snprintf(err, len, "%s: no %s in it", SHL_READLINE_SONAME,	\
			 #name);					\
		dlclose(h);						\
		return -1;						\
	}
	SHL_RL_SYMBOLS(SHL_RL_LOOKUP)
#undef SHL_RL_LOOKUP
	loaded = true;
	return 0;
}
#else
int shl_rl_load(char *err, size_t len)
{
	(void)err;
	(void)len;
	return 0;
}
#endif
