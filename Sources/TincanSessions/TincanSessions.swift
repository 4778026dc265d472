// TincanSessions: saved session files (*.tincan.yaml), variables, captures, assertions,
// history, replay, and curl / .http import and export. Requests in a session are
// TincanCore.RequestDraft values, so a saved request builds exactly as `tincan send` builds it.
//
// Its code lands with saved sessions (issue 6); the target exists now so the module boundary holds.
import TincanCore
