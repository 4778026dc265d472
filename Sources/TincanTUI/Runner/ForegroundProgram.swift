import Foundation
import TincanCore
#if canImport(Glibc)
import Glibc
#endif

/// A program the TUI hands the terminal to: `$PAGER`, `$VISUAL`/`$EDITOR` (issue 34 §1).
///
/// It runs (a command of plain words directly, anything else through `/bin/sh -c`) in
/// Tincan's own process group, which is the terminal's foreground group whether Tincan was started
/// from a shell with job control or directly, as `system(3)` and bubbletea's `ExecProcess` run a
/// program. Foundation's `Process` puts its child in a process group of its own: that group is in
/// the background, so `less` stopped on its first read of the terminal (SIGTTIN) and, with no shell
/// to continue it, the terminal froze; in an orphaned group the read failed and `less` exited 1.
/// The child starts with no signal blocked and every signal at its default action, whatever
/// Tincan's threads block or ignore, and with none of Tincan's descriptors but the standard three.
/// The terminal's side of the hand-off (its modes, and Tincan's own signal handlers while the
/// program runs) is ``TerminalDevice/withTerminalReleased(_:)``'s.
enum ForegroundProgram {
    /// Runs `command` on the file at `path` and waits for it to end.
    ///
    /// - Returns: Why it failed (it could not start, it exited non-zero, or a signal ended it), or nil.
    static func run(_ command: String, on path: String) -> String? {
        let arguments = argumentVector(command, path: path)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in openDescriptors() where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }

        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withCleanSignals { posix_spawnp(&pid, arguments[0], &actions, $0, &argv, environ) }
        guard spawned == 0 else { return "\(command): \(String(cString: strerror(spawned)))" }
        var status: Int32 = 0
        while true {
            guard waitpid(pid, &status, WUNTRACED) != -1 else {
                guard errno == EINTR else { return "\(command): \(String(cString: strerror(errno)))" }
                continue
            }
            // Stopped (ctrl+z, or a read from the background): Tincan stops with it, now that the
            // program has given the terminal back, and the shell's `fg` continues both.
            guard status & 0xFF == 0x7F else { break }
            stopLikeTheProgram(signal: (status >> 8) & 0xFF)
        }
        let signal = status & 0x7F
        if signal != 0 { return "\(command) was ended by signal \(signal)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "\(command) exited with status \(code)"
    }

    /// Stops Tincan with the signal that stopped the program, so the shell reports the job as it
    /// would the program alone ("Stopped", "Stopped (tty input)"). For that moment the signal is at
    /// its default action (the hand-off ignores SIGTSTP so that the terminal's ctrl+z stops the
    /// program first) and unblocked on this thread (Dispatch's workers block it): raised on this
    /// thread, it is taken before `raise` returns, and the shell's SIGCONT resumes here.
    private static func stopLikeTheProgram(signal number: Int32) {
        let stop = [SIGTSTP, SIGTTIN, SIGTTOU, SIGSTOP].contains(number) ? number : SIGTSTP
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, stop)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &only, &mask)
        let previous = signal(stop, SIG_DFL)
        raise(stop)
        if stop != SIGSTOP { signal(stop, previous) }
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// The program's arguments: a command of plain words (`less -R`) runs directly, as git runs
    /// its pager; anything else through `/bin/sh -c`, with the file as `$1`. A shell in between
    /// would take the terminal's ctrl+c too: dash, waiting for `less` (which ignores it), ends
    /// itself with SIGINT when `less` ends, so the pager seemed to have failed.
    static func argumentVector(_ command: String, path: String) -> [String] {
        let special = Set("|&;<>()$`\\\"'*?[]#~=%{}!\n")
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if !words.isEmpty, !command.contains(where: special.contains) { return words + [path] }
        return ["/bin/sh", "-c", "\(command) \"$1\"", "sh", path]
    }

    /// The process's open descriptors, from `/proc/self/fd` (the first 1,024 if it cannot be read).
    private static func openDescriptors() -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
            return (0..<Int32(1024)).filter { fcntl($0, F_GETFD) != -1 }
        }
        return names.compactMap { Int32($0) }
    }
}
