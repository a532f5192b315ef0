/* shell-rl.h: GNU readline for the shell, loaded (dlopen) when a shell starts on a terminal, so that no other use of syslet-run pays for loading it. */
#ifndef SYSLET_RUN_SHELL_RL_H
#define SYSLET_RUN_SHELL_RL_H

#include <stddef.h>
#include <stdio.h>

#include <readline/history.h>
#include <readline/readline.h>

/* Load readline; 0, or -1 with the reason in @err.  Linked in (no
 * SHL_READLINE_SONAME), there is nothing to load. */
int shl_rl_load(char *err, size_t len);

#ifdef SHL_READLINE_SONAME
/* What the shell uses of readline, each reached through a pointer that
 * shl_rl_load() sets: the names below stand for them. */
#define SHL_RL_SYMBOLS(X)						\
	X(add_history) X(clear_history)					\
	X(history_base) X(history_get) X(history_length)		\
	X(read_history) X(stifle_history)				\
	X(using_history) X(rl_attempted_completion_function)		\
	X(rl_attempted_completion_over)					\
	X(rl_basic_word_break_characters)				\
	X(rl_callback_handler_install) X(rl_callback_handler_remove)	\
	X(rl_callback_read_char) X(rl_callback_sigcleanup)		\
	X(rl_catch_signals) X(rl_check_signals) X(rl_completion_matches) \
	X(rl_cleanup_after_signal) X(rl_reset_after_signal)		\
	X(rl_forced_update_display)					\
	X(rl_end) X(rl_free_line_state) X(rl_instream) X(rl_line_buffer) \
	X(rl_outstream) X(rl_persistent_signal_handlers) X(rl_point)	\
	X(rl_readline_name) X(rl_redisplay)

#define SHL_RL_FIELD(name)	__typeof__(name) *name;
struct shl_rl {
	SHL_RL_SYMBOLS(SHL_RL_FIELD)
};
#undef SHL_RL_FIELD
extern struct shl_rl shl_rl;

#ifndef SHL_RL_NO_NAMES
#define add_history			(*shl_rl.add_history)
#define clear_history			(*shl_rl.clear_history)
#define history_base			(*shl_rl.history_base)
#define history_get			(*shl_rl.history_get)
#define history_length			(*shl_rl.history_length)
#define read_history			(*shl_rl.read_history)
#define stifle_history			(*shl_rl.stifle_history)
#define using_history			(*shl_rl.using_history)
#define rl_attempted_completion_function \
	(*shl_rl.rl_attempted_completion_function)
#define rl_attempted_completion_over	(*shl_rl.rl_attempted_completion_over)
#define rl_basic_word_break_characters	\
	(*shl_rl.rl_basic_word_break_characters)
#define rl_callback_handler_install	(*shl_rl.rl_callback_handler_install)
#define rl_callback_handler_remove	(*shl_rl.rl_callback_handler_remove)
#define rl_callback_read_char		(*shl_rl.rl_callback_read_char)
#define rl_callback_sigcleanup		(*shl_rl.rl_callback_sigcleanup)
#define rl_catch_signals		(*shl_rl.rl_catch_signals)
#define rl_check_signals		(*shl_rl.rl_check_signals)
#define rl_completion_matches		(*shl_rl.rl_completion_matches)
#define rl_cleanup_after_signal		(*shl_rl.rl_cleanup_after_signal)
#define rl_reset_after_signal		(*shl_rl.rl_reset_after_signal)
#define rl_forced_update_display	(*shl_rl.rl_forced_update_display)
#define rl_end				(*shl_rl.rl_end)
#define rl_free_line_state		(*shl_rl.rl_free_line_state)
#define rl_instream			(*shl_rl.rl_instream)
#define rl_line_buffer			(*shl_rl.rl_line_buffer)
#define rl_outstream			(*shl_rl.rl_outstream)
#define rl_persistent_signal_handlers	\
	(*shl_rl.rl_persistent_signal_handlers)
#define rl_point			(*shl_rl.rl_point)
#define rl_readline_name		(*shl_rl.rl_readline_name)
#define rl_redisplay			(*shl_rl.rl_redisplay)
#endif /* SHL_RL_NO_NAMES */
#endif /* SHL_READLINE_SONAME */

#endif /* SYSLET_RUN_SHELL_RL_H */
