// CursesBackend: the only module that imports CNcursesw. It starts and stops the terminal,
// draws ScreenBuffer diffs, reads key and mouse events, and handles resize, on one UI thread
// with a poll loop and a self-pipe inbox (see ../shared/DESIGN.md, TUI).
//
// Its code lands with the TUI (issue 4). The target exists now so the module boundary holds
// from the start: nothing else may import CNcursesw.
import CNcursesw
