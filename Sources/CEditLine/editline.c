// libedit's readline interface through dlopen (see include/CEditLine.h).
// The names and types are those of <editline/readline.h> (Debian's
// libedit-dev); the library is libedit2's libedit.so.2.
#include "CEditLine.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

static int loaded;            // 1 loaded, -1 failed, 0 not tried
static char error_text[512];

static char *(*p_readline)(const char *);
static int (*p_add_history)(const char *);
static int (*p_rl_initialize)(void);
static int (*p_rl_add_defun)(const char *, tl_rl_command *, int);
static int (*p_rl_parse_and_bind)(const char *);
static int *v_rl_done;
static const char **v_rl_readline_name;
static tl_rl_hook **v_rl_pre_input_hook;
static const char **v_rl_basic_word_break_characters;
static tl_rl_completion **v_rl_attempted_completion_function;
static int *v_rl_attempted_completion_over;
static int *v_rl_completion_append_character;
static char **v_rl_line_buffer;

static int resolve(void *lib, const char *name, void **slot) {
    *slot = dlsym(lib, name);
    if (*slot) return 1;
    snprintf(error_text, sizeof error_text, "libedit has no symbol %s", name);
    return 0;
}

int tl_edit_load(void) {
    if (loaded) return loaded > 0;
    loaded = -1;
    // TRAITLAB_LIBEDIT names another library (a system whose libedit has
    // another soname; the REPL test uses a missing one).
    const char *name = getenv("TRAITLAB_LIBEDIT");
    void *lib;
    if (name && *name) {
        lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    } else {
        lib = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!lib) lib = dlopen("libedit.so", RTLD_NOW | RTLD_LOCAL);
    }
    if (!lib) {
        const char *e = dlerror();
        snprintf(error_text, sizeof error_text, "%s", e ? e : "cannot load libedit.so.2");
        return 0;
    }
    int ok = resolve(lib, "readline", (void **)&p_readline)
        && resolve(lib, "add_history", (void **)&p_add_history)
        && resolve(lib, "rl_initialize", (void **)&p_rl_initialize)
        && resolve(lib, "rl_add_defun", (void **)&p_rl_add_defun)
        && resolve(lib, "rl_parse_and_bind", (void **)&p_rl_parse_and_bind)
        && resolve(lib, "rl_done", (void **)&v_rl_done)
        && resolve(lib, "rl_readline_name", (void **)&v_rl_readline_name)
        && resolve(lib, "rl_pre_input_hook", (void **)&v_rl_pre_input_hook)
        && resolve(lib, "rl_basic_word_break_characters", (void **)&v_rl_basic_word_break_characters)
        && resolve(lib, "rl_attempted_completion_function", (void **)&v_rl_attempted_completion_function)
        && resolve(lib, "rl_attempted_completion_over", (void **)&v_rl_attempted_completion_over)
        && resolve(lib, "rl_completion_append_character", (void **)&v_rl_completion_append_character)
        && resolve(lib, "rl_line_buffer", (void **)&v_rl_line_buffer);
    if (!ok) { dlclose(lib); return 0; }
    loaded = 1;
    return 1;
}

const char *tl_edit_error(void) { return error_text; }

char *tl_readline(const char *prompt) { return p_readline(prompt); }
int tl_add_history(const char *line) { return p_add_history(line); }
int tl_rl_initialize(void) { return p_rl_initialize(); }
int tl_rl_add_defun(const char *name, tl_rl_command *function, int key) { return p_rl_add_defun(name, function, key); }
int tl_rl_parse_and_bind(const char *line) { return p_rl_parse_and_bind(line); }

void tl_rl_set_done(int done) { *v_rl_done = done; }
void tl_rl_set_readline_name(const char *name) { *v_rl_readline_name = name; }
void tl_rl_set_pre_input_hook(tl_rl_hook *hook) { *v_rl_pre_input_hook = hook; }
void tl_rl_set_basic_word_break_characters(const char *characters) { *v_rl_basic_word_break_characters = characters; }
void tl_rl_set_attempted_completion_function(tl_rl_completion *function) { *v_rl_attempted_completion_function = function; }
void tl_rl_set_attempted_completion_over(int over) { *v_rl_attempted_completion_over = over; }
void tl_rl_set_completion_append_character(int character) { *v_rl_completion_append_character = character; }
char *tl_rl_line_buffer(void) { return *v_rl_line_buffer; }
