// libedit's readline interface, loaded on demand.
//
// Only the interactive REPL edits lines, so `traitlab` does not link libedit:
// binding it (and libtinfo, libbsd, libmd, which it needs) at every start was
// a fifth of the start-up of `traitlab -e ''` (docs/performance.md). The REPL
// calls tl_edit_load() when it starts on a terminal; everything below works
// only after that returned 1.
#ifndef CEDITLINE_H
#define CEDITLINE_H

typedef int tl_rl_hook(void);
typedef int tl_rl_command(int count, int key);
typedef char **tl_rl_completion(const char *text, int start, int end);

// Loads libedit once; 1 when its readline interface is usable. Otherwise 0,
// and tl_edit_error() says why (dlerror's text or a missing symbol).
int tl_edit_load(void);
const char *tl_edit_error(void);

char *tl_readline(const char *prompt);
int tl_add_history(const char *line);
int tl_rl_initialize(void);
int tl_rl_add_defun(const char *name, tl_rl_command *function, int key);
int tl_rl_parse_and_bind(const char *line);

// libedit's variables.
void tl_rl_set_done(int done);
void tl_rl_set_readline_name(const char *name);
void tl_rl_set_pre_input_hook(tl_rl_hook *hook);
void tl_rl_set_basic_word_break_characters(const char *characters);
void tl_rl_set_attempted_completion_function(tl_rl_completion *function);
void tl_rl_set_attempted_completion_over(int over);
void tl_rl_set_completion_append_character(int character);
char *tl_rl_line_buffer(void);

#endif
