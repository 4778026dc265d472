#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The user's browser, as `$BROWSER` names it: a program called with the URL as its one
/// argument, as `xdg-open` is.
public struct Browser: Sendable, Hashable {
    /// The program, looked up on `PATH` when it has no slash.
    public var program: String

    /// The browser `$BROWSER` names, or nil when it is unset or empty.
    public init?(environment: [String: String]) {
        guard let program = environment["BROWSER"]?.trimmingWhitespace(), !program.isEmpty else { return nil }
        self.program = program
    }

    /// Starts the browser on `url`, its standard streams on /dev/null so it never writes over
    /// a screen; the child is reaped when it ends. A browser that cannot start is ignored: the
    /// URL has been shown already.
    public func open(_ url: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup(url), nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = SpawnAttributes.withCleanSignals { posix_spawnp(&pid, program, &actions, $0, &argv, environ) }
        guard spawned == 0 else { return }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        }
    }
}
