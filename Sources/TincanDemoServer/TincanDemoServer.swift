// TincanDemoServer: the Hummingbird server behind `tincan serve`, the welcome session and the
// integration tests, with httpbin-compatible routes so examples run offline.
//
// Its code lands with sending (issue 3); the target exists now so the module boundary holds.
import TincanCore
