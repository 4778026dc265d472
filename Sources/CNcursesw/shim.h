// The only C surface of Tincan: ncursesw with wide characters, plus accessors for the macros
// and globals that Swift 6 cannot import (macros) or rejects as not concurrency-safe (globals).
#ifndef TINCAN_CNCURSESW_SHIM_H
#define TINCAN_CNCURSESW_SHIM_H

// Must come before curses.h, or cchar_t and wadd_wch are missing.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <wchar.h>

// wcwidth is not visible from Glibc in Swift.
int wcwidth(wchar_t c);

static inline WINDOW *tincan_stdscr(void) { return stdscr; }
static inline int tincan_colors(void) { return COLORS; }
static inline int tincan_color_pairs(void) { return COLOR_PAIRS; }
static inline int tincan_lines(void) { return LINES; }
static inline int tincan_cols(void) { return COLS; }
static inline attr_t tincan_a_bold(void) { return A_BOLD; }
static inline attr_t tincan_a_dim(void) { return A_DIM; }
static inline attr_t tincan_a_underline(void) { return A_UNDERLINE; }
static inline attr_t tincan_a_reverse(void) { return A_REVERSE; }
static inline attr_t tincan_a_italic(void) { return A_ITALIC; }
static inline attr_t tincan_a_normal(void) { return A_NORMAL; }
static inline int tincan_getmaxy(WINDOW *window) { return getmaxy(window); }
static inline int tincan_getmaxx(WINDOW *window) { return getmaxx(window); }

#endif
