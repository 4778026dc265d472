#if canImport(Glibc)
import Glibc
#endif

/// Spawn attributes for a child that starts clean: no signal blocked and every signal at its
/// default action, whatever the spawning thread blocks or ignores.
///
/// A child inherits its parent thread's signal mask and ignored signals: Dispatch's workers block
/// most signals, and a program spawned from one (a pager, an editor, a tmux server in a test)
/// then ignored ctrl+c or the SIGTERM meant to end it.
public enum SpawnAttributes {
    /// Runs `body` with the clean attributes.
    public static func withCleanSignals<T>(_ body: (UnsafePointer<posix_spawnattr_t>) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }
}
