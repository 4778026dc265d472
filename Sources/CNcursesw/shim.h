// The only C surface of Tincan: ncursesw with wide characters, plus accessors for the macros
// and globals that Swift 6 cannot import (macros) or rejects as not concurrency-safe (globals).
#ifndef TINCAN_CNCURSESW_SHIM_H
#define TINCAN_CNCURSESW_SHIM_H

// Must come before curses.h, or cchar_t and wadd_wch are missing.
#define NCURSES_WIDECHAR 1
#include <errno.h>
#include <locale.h>
#include <ncursesw/curses.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
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
static inline mmask_t tincan_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t tincan_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t tincan_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t tincan_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t tincan_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t tincan_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t tincan_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline void tincan_set_escdelay(int milliseconds) { set_escdelay(milliseconds); }

// Signals. The handlers are C because a signal handler may only do async-signal-safe work:
// each writes one byte to the UI loop's self-pipe. SIGWINCH chains ncurses' own handler, so
// KEY_RESIZE still arrives. Their state lives in function-local statics (Swift's importer emits
// static functions but not static variables); everything that uses them is called from one
// Swift file (CursesTerminal.swift), so there is one copy.
static inline int *tincan_wake_fd_storage(void) { static int fd = -1; return &fd; }
static inline volatile sig_atomic_t *tincan_stop_signal_storage(void) { static volatile sig_atomic_t signal_number = 0; return &signal_number; }
static inline struct sigaction *tincan_previous_winch_storage(void) { static struct sigaction previous; return &previous; }
#define tincan_wake_fd (*tincan_wake_fd_storage())
#define tincan_stop_signal (*tincan_stop_signal_storage())
#define tincan_previous_winch (*tincan_previous_winch_storage())

// Turns off what Tincan turned on in the terminal, with write(2) only: bracketed paste, mouse
// reporting, the alternate screen; then shows the cursor.
static inline void tincan_reset_terminal_modes(void) {
    static const char reset[] = "\033[?2004l\033[?1000l\033[?1002l\033[?1006l\033[?1049l\033[?25h\033[0m";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
}

// ncurses' handler runs first: it sets the flag that makes the next wget_wch return KEY_RESIZE.
// Waking the loop before that (the signal may run on another thread) could let the loop read,
// find nothing, and sleep through the resize.
static void tincan_on_winch(int signal_number) {
    int saved = errno;
    if (!(tincan_previous_winch.sa_flags & SA_SIGINFO) && tincan_previous_winch.sa_handler != SIG_DFL
        && tincan_previous_winch.sa_handler != SIG_IGN && tincan_previous_winch.sa_handler != NULL) {
        tincan_previous_winch.sa_handler(signal_number);
    }
    if (tincan_wake_fd >= 0) { ssize_t ignored = write(tincan_wake_fd, "w", 1); (void)ignored; }
    errno = saved;
}

static void tincan_on_stop(int signal_number) {
    int saved = errno;
    tincan_stop_signal = signal_number;
    if (tincan_wake_fd >= 0) { ssize_t ignored = write(tincan_wake_fd, "s", 1); (void)ignored; }
    errno = saved;
}

// A crash: give the terminal back (endwin is not async-signal-safe, but the process is dying and
// a terminal left in raw mode is worse), then die of the same signal with its default action.
static void tincan_on_crash(int signal_number) {
    endwin();
    tincan_reset_terminal_modes();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static inline void tincan_install_signal_handlers(int wake_fd) {
    tincan_wake_fd = wake_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = tincan_on_winch;
    sigaction(SIGWINCH, &action, &tincan_previous_winch);
    action.sa_handler = tincan_on_stop;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    action.sa_flags = SA_RESETHAND;
    action.sa_handler = tincan_on_crash;
    sigaction(SIGSEGV, &action, NULL);
    sigaction(SIGBUS, &action, NULL);
    sigaction(SIGILL, &action, NULL);
    sigaction(SIGFPE, &action, NULL);
    sigaction(SIGABRT, &action, NULL);
    sigaction(SIGTRAP, &action, NULL);
}

static inline void tincan_restore_signal_handlers(void) {
    sigaction(SIGWINCH, &tincan_previous_winch, NULL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int crashes[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned i = 0; i < sizeof crashes / sizeof crashes[0]; i++) signal(crashes[i], SIG_DFL);
    tincan_wake_fd = -1;
}

static inline int tincan_stop_requested(void) { return tincan_stop_signal; }

// A hand-off to another program ($PAGER, $EDITOR) that runs in Tincan's own process group, the
// terminal's foreground group, as system(3) runs a command: ctrl+c and ctrl+\ are the program's,
// so Tincan ignores them meanwhile (its SIGINT handler would otherwise end Tincan when the pager
// ends). ctrl+z is the program's too: Tincan ignores SIGTSTP and stops itself only once the
// program has stopped (ForegroundProgram waits with WUNTRACED), so the shell reports the job
// stopped after the program has put the terminal back, and `fg` continues both. Stopping at once
// with the tty's SIGTSTP let the shell print its "Stopped" line and prompt while `less` was still
// leaving its alternate screen, which then hid them. (ncurses' own SIGTSTP handler would repaint
// Tincan's screen over the program on `fg`.)
static inline struct sigaction *tincan_handoff_saved_storage(void) { static struct sigaction saved[5]; return saved; }
static const int tincan_handoff_signals[5] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };

static inline void tincan_handoff_begin(void) {
    struct sigaction *saved = tincan_handoff_saved_storage();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 5; i++) {
        int signal_number = tincan_handoff_signals[i];
        action.sa_handler = (signal_number == SIGTTIN || signal_number == SIGTTOU) ? SIG_DFL : SIG_IGN;
        sigaction(signal_number, &action, &saved[i]);
    }
}

static inline void tincan_handoff_end(void) {
    struct sigaction *saved = tincan_handoff_saved_storage();
    for (int i = 0; i < 5; i++) sigaction(tincan_handoff_signals[i], &saved[i], NULL);
}

#endif
