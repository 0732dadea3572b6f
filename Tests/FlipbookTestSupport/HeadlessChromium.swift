import FlipbookPNG
import FlipbookPixels
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands are written to the browser's fd 3, answers and events
/// read from its fd 4, each a JSON message ended by a NUL byte), so tests can load a page from
/// disk, press keys, click, evaluate script and take screenshots without any network or
/// WebSocket client.
///
/// Every wait has a deadline: a browser that hangs fails the test instead of blocking it.
/// The browser is killed when the value is closed or released.
public final class HeadlessChromium: @unchecked Sendable {
    /// The browser executable: `$CHROMIUM`, else `chromium`, `chromium-browser` or
    /// `google-chrome` on `PATH`; `nil` when there is none.
    public static let executable: String? = {
        let env = ProcessInfo.processInfo.environment
        if let c = env["CHROMIUM"], !c.isEmpty { return c }
        let path = env["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }()

    /// True when `CI` is set (not empty, `0` or `false`): there a missing browser is a failure,
    /// not a reason to skip.
    public static let isCI: Bool = {
        guard let ci = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !ci.isEmpty && ci != "0" && ci.lowercased() != "false"
    }()

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ d: String) { description = d }
    }

    let pid: pid_t
    let toBrowser: Int32
    let fromBrowser: Int32
    let profile: String
    var buffer: [UInt8] = []
    var nextID = 1
    /// Every event received so far (`method`, `params`, `sessionId`), in order.
    public private(set) var events: [[String: Any]] = []
    /// The browser's standard error (its own log), for failure messages.
    public let logPath: String

    /// Starts the browser with a window of `width × height` CSS pixels at device scale 1.
    public init(width: Int = 1280, height: Int = 800) throws {
        guard let exe = Self.executable else { throw Failure("no chromium on PATH") }
        profile = NSTemporaryDirectory() + "flipbook-chromium-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        logPath = profile + ".log"
        var c2b: [Int32] = [0, 0], b2c: [Int32] = [0, 0]
        guard pipe(&c2b) == 0, pipe(&b2c) == 0 else { throw Failure("pipe: \(errno)") }
        // Close-on-exec copies out of the way of 3 and 4, so the dup2s below always make new
        // descriptors and no other child inherits these.
        let cmdRead = fcntl(c2b[0], F_DUPFD_CLOEXEC, 10), evWrite = fcntl(b2c[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(c2b[0]); Glibc.close(b2c[1])
        _ = fcntl(c2b[1], F_SETFD, FD_CLOEXEC); _ = fcntl(b2c[0], F_SETFD, FD_CLOEXEC)
        toBrowser = c2b[1]; fromBrowser = b2c[0]

        let args = [exe, "--headless", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
                    "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                    "--disable-background-networking", "--disable-dev-shm-usage", "--disable-sync",
                    "--force-color-profile=srgb", "--force-device-scale-factor=1", "--hide-scrollbars",
                    "--mute-audio", "--window-size=\(width),\(height)", "about:blank"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, cmdRead, 3)
        posix_spawn_file_actions_adddup2(&actions, evWrite, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so close() can end the browser and all its helpers at once.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let cargs = args.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, exe, &actions, &attributes, cargs, environ)
        Glibc.close(cmdRead); Glibc.close(evWrite)
        guard rc == 0 else { Glibc.close(toBrowser); Glibc.close(fromBrowser); throw Failure("cannot start \(exe): \(String(cString: strerror(rc)))") }
        pid = child
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { close() }

    private var closed = false
    /// Ends the browser (its whole process group) and removes its profile.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(toBrowser); Glibc.close(fromBrowser)
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: profile)
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The browser's log so far (the last 4,000 characters).
    public var log: String {
        String((try? String(contentsOfFile: logPath, encoding: .utf8))?.suffix(4000) ?? "")
    }

    /// Sends a command and returns its `result`; a protocol error throws.
    @discardableResult
    public func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil,
                     timeout: Double = 60) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; throw Failure("\(method): the browser is gone (write: \(errno))\n\(log)") }
            offset += n
        }
        let reply = try next(timeout: timeout, what: method) { ($0["id"] as? Int) == id }
        if let error = reply["error"] { throw Failure("\(method) failed: \(error)") }
        return reply["result"] as? [String: Any] ?? [:]
    }

    /// Waits for the first event (already received or arriving) for which `match` holds.
    public func waitForEvent(_ method: String, session: String? = nil, timeout: Double = 60,
                             where match: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        func fits(_ e: [String: Any]) -> Bool {
            (e["method"] as? String) == method && (session == nil || (e["sessionId"] as? String) == session)
                && match(e["params"] as? [String: Any] ?? [:])
        }
        if let i = events.firstIndex(where: fits) { return events.remove(at: i) }
        return try next(timeout: timeout, what: method) { fits($0) }
    }

    /// Reads messages until one matches; every other one with a `method` is kept in ``events``.
    func next(timeout: Double, what: String, _ match: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let nul = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<nul])
                buffer.removeSubrange(...nul)
                guard let msg = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                if match(msg) { return msg }
                if msg["method"] != nil { events.append(msg) }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure("timed out after \(timeout) s waiting for \(what)\n\(log)") }
            var p = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left, 1) * 1000))
            if r < 0 { if errno == EINTR { continue }; throw Failure("poll: \(errno)") }
            if r == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw Failure("read: \(errno)") }
            if n == 0 { throw Failure("the browser closed the pipe while waiting for \(what)\n\(log)") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Opens a new tab on `url` with console, log and page events on, and waits for its load event.
    public func open(_ url: String, width: Int = 1280, height: Int = 800, timeout: Double = 60) throws -> Tab {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw Failure("no target id") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure("no session id") }
        let tab = Tab(browser: self, session: session)
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] { try send(domain, session: session) }
        try send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1,
                                                        "mobile": false], session: session)
        try tab.navigate(url, timeout: timeout)
        return tab
    }

    /// One page, attached with a flat session.
    public final class Tab {
        public let browser: HeadlessChromium
        public let session: String

        init(browser: HeadlessChromium, session: String) { self.browser = browser; self.session = session }

        /// Loads `url` and waits for its load event.
        public func navigate(_ url: String, timeout: Double = 60) throws {
            browser.events.removeAll { ($0["method"] as? String) == "Page.loadEventFired" && ($0["sessionId"] as? String) == session }
            let r = try browser.send("Page.navigate", ["url": url], session: session)
            if let e = r["errorText"] as? String { throw Failure("cannot open \(url): \(e)") }
            _ = try browser.waitForEvent("Page.loadEventFired", session: session, timeout: timeout)
        }

        /// The value of a script expression (`awaitPromise`: a promise's value); a thrown
        /// exception throws.
        public func evaluate(_ expression: String, timeout: Double = 60) throws -> Any? {
            let r = try browser.send("Runtime.evaluate", ["expression": expression, "returnByValue": true,
                                                          "awaitPromise": true], session: session, timeout: timeout)
            if let ex = r["exceptionDetails"] as? [String: Any] {
                let text = ((ex["exception"] as? [String: Any])?["description"] as? String) ?? (ex["text"] as? String) ?? "\(ex)"
                throw Failure("script failed: \(text)\nin: \(expression.prefix(300))")
            }
            return (r["result"] as? [String: Any])?["value"]
        }

        /// Presses and releases a key as a keyboard does (`j`, `ArrowRight`, `1`, `=` …).
        public func press(_ key: String) throws {
            let named: [String: (code: String, vk: Int)] = [
                "ArrowLeft": ("ArrowLeft", 37), "ArrowUp": ("ArrowUp", 38), "ArrowRight": ("ArrowRight", 39),
                "ArrowDown": ("ArrowDown", 40), "=": ("Equal", 187), "-": ("Minus", 189), "?": ("Slash", 191),
            ]
            var down: [String: Any] = ["type": "keyDown", "key": key]
            if let n = named[key] {
                down["code"] = n.code; down["windowsVirtualKeyCode"] = n.vk
                if key.count == 1 { down["text"] = key }
            } else if let c = key.unicodeScalars.first, key.count == 1 {
                let upper = key.uppercased()
                down["code"] = c.properties.numericType != nil ? "Digit\(key)" : "Key\(upper)"
                down["windowsVirtualKeyCode"] = Int(upper.unicodeScalars.first!.value)
                down["text"] = key
            }
            try browser.send("Input.dispatchKeyEvent", down, session: session)
            var up = down
            up["type"] = "keyUp"; up["text"] = nil
            try browser.send("Input.dispatchKeyEvent", up, session: session)
        }

        /// A left click at `(x, y)` CSS pixels of the viewport.
        public func click(x: Double, y: Double) throws {
            for type in ["mousePressed", "mouseReleased"] {
                try browser.send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left",
                                                              "clickCount": 1], session: session)
            }
        }

        /// The viewport as pixels (a PNG screenshot, decoded).
        public func screenshot() throws -> PixelBuffer {
            let r = try browser.send("Page.captureScreenshot", ["format": "png"], session: session)
            guard let b64 = r["data"] as? String, let data = Data(base64Encoded: b64) else { throw Failure("no screenshot data") }
            return try PNG.decode(data)
        }

        /// Console messages of level error or warning, uncaught exceptions and log entries of
        /// level error or warning (a resource that failed to load, a blocked request …)
        /// received so far for this page, as readable lines.
        public var problems: [String] {
            browser.events.compactMap { e -> String? in
                guard (e["sessionId"] as? String) == session, let m = e["method"] as? String,
                      let p = e["params"] as? [String: Any] else { return nil }
                switch m {
                case "Runtime.exceptionThrown":
                    let d = p["exceptionDetails"] as? [String: Any]
                    return "exception: \(((d?["exception"] as? [String: Any])?["description"] as? String) ?? (d?["text"] as? String) ?? "?")"
                case "Runtime.consoleAPICalled":
                    let type = p["type"] as? String ?? ""
                    guard ["error", "warning", "assert"].contains(type) else { return nil }
                    let args = (p["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
                    return "console.\(type): \(args.joined(separator: " "))"
                case "Log.entryAdded":
                    guard let entry = p["entry"] as? [String: Any], let level = entry["level"] as? String,
                          level == "error" || level == "warning" else { return nil }
                    return "log \(level): \(entry["text"] ?? "") \(entry["url"] ?? "")"
                default:
                    return nil
                }
            }
        }

        /// Every console message of any level, for pages that should log nothing at all.
        public var consoleMessages: [String] {
            browser.events.compactMap { e -> String? in
                guard (e["sessionId"] as? String) == session, (e["method"] as? String) == "Runtime.consoleAPICalled",
                      let p = e["params"] as? [String: Any] else { return nil }
                return "console.\(p["type"] ?? ""): \((p["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? "")" })"
            }
        }
    }
}
