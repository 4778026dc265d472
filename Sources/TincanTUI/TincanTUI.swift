// TincanTUI: the app — AppState, messages, update, the render of every pane, key bindings,
// and theme and keymap loading. update(state, message) returns effects; an effect such as
// "send" calls TincanCore, whose delegate callbacks post messages back.
//
// Its code lands with the TUI (issues 4 and 5); the target exists now so the module boundary holds.
import TincanCore
