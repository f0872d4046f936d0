// <editline/readline.h> expects <stdio.h> to be included first.
#include <stdio.h>
#include <editline/readline.h>
