import Testing
import Foundation
import FlipbookTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `flipbook` executable as a process: diagnostics that cannot be written are never fatal
/// (stderr full, closed, or a pipe whose reader left), SIGTERM and SIGHUP stop a render like
/// Ctrl-C (complete frames kept, temporaries removed, exit 128 + signal), and temporaries left by
/// a killed run are removed by the next one.
@Suite(.serialized) struct ProcessRobustnessTests {
    let folder = TemporaryDirectory(prefix: "flipbook-process-")

    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/flipbook"
    }

    static var minimal: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/samples/scenes/minimal.json"
    }

    static var demo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/samples/scenes/demo.json"
    }

    enum Stderr { case devFull, closed, brokenPipe }

    /// Starts `flipbook args…` with stdin from /dev/null and stdout/stderr set up as asked
    /// (`environment` replaces the process's when given).
    static func spawn(_ args: [String], stderr: Stderr? = nil, environment: [String: String]? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var readEnd: Int32 = -1, writeEnd: Int32 = -1
        switch stderr {
        case .devFull?:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/full", O_WRONLY, 0)
        case .closed?:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addclose(&actions, 2)
        case .brokenPipe?:
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            readEnd = fds[0]; writeEnd = fds[1]
        case nil:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = (["flipbook"] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { e in e.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        let rc = envp.map { e in e.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, nil, argv, $0.baseAddress) } }
            ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
        try #require(rc == 0, "cannot start \(executable): \(rc)")
        if readEnd >= 0 {
            // The reader goes away at once (`| head -0`): every write by the child hits EPIPE.
            close(readEnd); close(writeEnd)
        }
        return pid
    }

    /// Waits for `pid`: its exit code, or 128 + the signal that killed it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let sig = status & 0x7F
        return sig == 0 ? (status >> 8) & 0xFF : 1000 + sig
    }

    func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test(arguments: [Stderr.devFull, .closed, .brokenPipe])
    func unwritableDiagnosticsAreNotFatal(_ how: Stderr) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("frames")
        let pid = try Self.spawn(["render", Self.minimal, "-o", out, "--size", "64x36"], stderr: how)
        #expect(Self.wait(pid) == 0)
        let files = names(out)
        #expect(files.filter { $0.hasSuffix(".png") }.count == 30)
        #expect(!files.contains { $0.contains(".partial-") })
    }

    /// SIGTERM and SIGHUP mid-render: exit 143 / 129, only complete frames left, no temporaries.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func terminationSignalsStopCleanly(_ sig: Int32, _ code: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("frames")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let pid = try Self.spawn(["render", Self.demo, "-o", out, "--size", "320x180"])
        // Wait for the first frame on disk (the handlers are installed by then), then signal.
        let deadline = Date().addingTimeInterval(60)
        while !names(out).contains(where: { $0.hasSuffix(".png") }) && Date() < deadline { usleep(20_000) }
        kill(pid, sig)
        #expect(Self.wait(pid) == code)
        let files = names(out)
        #expect(!files.contains { $0.contains(".partial-") }, "\(files)")
        #expect(files.count < 90, "the render was not interrupted")
    }

    /// SIGKILL during an MP4 render: the ffmpeg child dies with flipbook (PR_SET_PDEATHSIG),
    /// instead of running on. The "ffmpeg" here is a script that records its pid and sleeps.
    @Test func ffmpegDiesWithItsParent() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let bin = folder.file("bin"), pidFile = folder.file("ffmpeg.pid")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: bin + "/ffmpeg", contents: Data("#!/bin/sh\necho $$ > \"$FAKE_PIDFILE\"\nexec sleep 1000\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let pid = try Self.spawn(["render", Self.minimal, "-o", folder.file("m.mp4"), "--size", "64x36"],
                                 environment: ["PATH": bin + ":/usr/bin:/bin", "FAKE_PIDFILE": pidFile])
        var child: pid_t = 0
        let deadline = Date().addingTimeInterval(30)
        while child == 0 && Date() < deadline {
            if let t = try? String(contentsOfFile: pidFile, encoding: .utf8), let p = pid_t(t.trimmingCharacters(in: .whitespacesAndNewlines)) { child = p }
            usleep(10_000)
        }
        try #require(child > 0, "the fake ffmpeg never started")
        kill(pid, SIGKILL)
        #expect(Self.wait(pid) == 1000 + SIGKILL)
        // Gone (or a zombie waiting for a reaper) within two seconds.
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) else { return false }
            let state = stat.split(separator: ")").last?.split(separator: " ").first
            return state != "Z"
        }
        let until = Date().addingTimeInterval(2)
        while alive() && Date() < until { usleep(10_000) }
        #expect(!alive(), "ffmpeg (pid \(child)) survived its parent")
        if alive() { kill(child, SIGKILL) }
    }

    /// Cyclic tree edits in a timeline are ignored, as Core Animation ignores them — and said
    /// on standard error with the scene line; the render still succeeds.
    @Test func cyclicTreeEditsAreReported() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let scene = folder.file("cyc.json")
        try Data("""
        {"output": {"size": "32x32", "duration": 0.1},
         "layers": [{"name": "a", "frame": [0,0,10,10], "sublayers": [{"name": "b", "frame": [0,0,5,5]}]}],
         "timeline": [
           {"at": 0, "do": [
             {"add": "a", "to": "b"},
             {"add": "a", "to": "a"}
           ]}
         ]}
        """.utf8).write(to: URL(fileURLWithPath: scene))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["render", scene, "-o", folder.file("out"), "--quiet"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("cyc.json:5: timeline: adding \"a\" to \"b\" would put it inside itself; the step is ignored"), "\(text)")
        #expect(text.contains("cyc.json:6: timeline: adding \"a\" to \"a\""))
    }

    /// Temporaries of a process that no longer exists are removed by the next run into the
    /// folder; a live process's are kept (another shard may be writing them).
    @Test func staleTemporariesAreRemoved() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("frames")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // A pid that is certainly gone: a child that has exited and been reaped.
        let gone = try Self.spawn(["--version"])
        _ = Self.wait(gone)
        let stale = ".frame_00003.png.partial-\(gone)-7", live = ".frame_00004.png.partial-\(getpid())-1"
        for name in [stale, live] { FileManager.default.createFile(atPath: out + "/" + name, contents: Data([1, 2, 3])) }
        let pid = try Self.spawn(["render", Self.minimal, "-o", out, "--size", "64x36", "--resume"])
        #expect(Self.wait(pid) == 0)
        let files = names(out)
        #expect(!files.contains(stale))
        #expect(files.contains(live))
        #expect(files.filter { $0.hasSuffix(".png") }.count == 30)
    }
}

/// Text renders from the fonts compiled into Flipbook: a machine with no fonts installed (an
/// empty fontconfig configuration) renders the same bytes.
@Suite struct BundledFontProcessTests {
    let folder = TemporaryDirectory(prefix: "flipbook-fonts-")

    @Test func textIsTheSameWithoutInstalledFonts() throws {
        let exe = ProcessRobustnessTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: exe), "not built: \(exe)")
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/samples/scenes/title-card.json"
        let conf = folder.file("empty-fonts.conf")
        try Data("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig><cachedir>\(folder.path)/cache</cachedir></fontconfig>\n".utf8)
            .write(to: URL(fileURLWithPath: conf))
        func render(_ out: String, env: [String: String]) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.arguments = ["render", scene, "-o", out, "--frames", "45..45", "--quiet"]
            var e = ProcessInfo.processInfo.environment
            for (k, v) in env { e[k] = v }
            p.environment = e
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        #expect(try render(folder.file("a"), env: [:]) == 0)
        #expect(try render(folder.file("b"), env: ["FONTCONFIG_FILE": conf]) == 0)
        let a = FileManager.default.contents(atPath: folder.file("a") + "/frame_00045.png")
        let b = FileManager.default.contents(atPath: folder.file("b") + "/frame_00045.png")
        #expect(a != nil && a == b)
    }
}
