#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
