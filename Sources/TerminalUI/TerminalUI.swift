// TerminalUI: the pure terminal toolkit — cells, styles, colours, the screen buffer and its diff,
// layout, widgets, key events, keymaps and themes. It imports no ncurses, so everything in it
// renders into memory and is tested without a terminal.
//
// Its types land with the TUI (issue 4); the target exists now so the module boundary holds.
