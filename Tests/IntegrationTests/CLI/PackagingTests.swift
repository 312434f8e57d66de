import Foundation
import TestSupport
import Testing

/// What `make install`, `make deb` and `make dist` install (docs/PACKAGING.md): the files, one
/// version everywhere, valid desktop and AppStream data, shell completions that complete.
/// The packages themselves are built and installed into a clean Debian root by `make test-package`.
@Suite struct PackagingTests {
    static let root = Pipcam.packageRoot
    static let appID = "io.github.pipcam.pipcam"

    @Test func versionIsTheSameEverywhere() throws {
        let version = try runChecked([try Pipcam.binaryPath(), "--version"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(version)")
        let changelog = try String(contentsOfFile: Self.root + "/CHANGELOG.md", encoding: .utf8)
        let newestEntry = changelog.firstMatch(of: /\n## (\S+) — (\d{4}-\d{2}-\d{2})\n/)
        #expect(newestEntry?.output.1 == Substring(version), "CHANGELOG.md's newest entry")
        let metainfo = try String(contentsOfFile: Self.root + "/assets/\(Self.appID).metainfo.xml", encoding: .utf8)
        let newestRelease = metainfo.firstMatch(of: /<release version="([^"]+)" date="([^"]+)"/)
        #expect(newestRelease?.output.1 == Substring(version), "the AppStream metadata's newest release")
        #expect(newestRelease?.output.2 == newestEntry?.output.2, "the same release date")
        // The README's install lines name the files of this version.
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("./pipcam_\(version)_amd64.deb") && readme.contains("pipcam-\(version)-linux-x86_64.tar.gz"))

        let debian = try run([Self.root + "/scripts/debian-changelog", version])
        #expect(debian.exitCode == 0, "\(debian)")
        let lines = debian.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "pipcam (\(version)) unstable; urgency=medium")
        #expect(lines.allSatisfy { $0.count <= 80 || $0.hasPrefix(" -- ") }, "Debian wants lines of 80 columns")
        #expect(lines.contains { $0.hasPrefix(" -- The pipcam developers <") && $0.hasSuffix(" +0000") })
        let stale = try run([Self.root + "/scripts/debian-changelog", version + ".1"])
        #expect(stale.exitCode == 1 && stale.stderrText.contains("newest release is '\(version)'"), "\(stale)")
    }

    /// `--version`, `--help` and the completion scripts answer even when the config file is bad
    /// (which stops pipcam itself with exit 2).
    @Test func versionHelpAndCompletionsIgnoreABadConfig() throws {
        let config = try Scratch.makeDirectory("bad-config")
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/pipcam", withIntermediateDirectories: true)
        try "no-such-setting = 1\n".write(toFile: config + "/pipcam/config", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config
        environment["DISPLAY"] = ":9999"
        let binary = try Pipcam.binaryPath()
        let refused = try run([binary, "--list-cameras"], environment: environment)
        #expect(refused.exitCode == 2 && refused.stderrText.contains("config"), "\(refused)")
        for arguments in [["--version"], ["--help"], ["--generate-completion-script", "bash"]] {
            let result = try run([binary] + arguments, environment: environment)
            #expect(result.exitCode == 0 && result.stderrText.isEmpty && !result.stdoutText.isEmpty, "\(arguments): \(result)")
        }
    }

    @Test func desktopEntryAndAppStreamDataAreValidAndAgree() throws {
        let entry = Self.root + "/assets/\(Self.appID).desktop"
        let validEntry = try run(["desktop-file-validate", entry])
        #expect(validEntry.exitCode == 0 && validEntry.stdoutText.isEmpty && validEntry.stderrText.isEmpty, "\(validEntry)")
        let metainfoPath = Self.root + "/assets/\(Self.appID).metainfo.xml"
        let validMetainfo = try run(["appstreamcli", "validate", "--no-net", "--pedantic", metainfoPath])
        #expect(validMetainfo.exitCode == 0 && !validMetainfo.stdoutText.contains("P:"), "\(validMetainfo)")
        let metainfo = try String(contentsOfFile: metainfoPath, encoding: .utf8)
        #expect(metainfo.contains("<id>\(Self.appID)</id>"))
        #expect(metainfo.contains("<launchable type=\"desktop-id\">\(Self.appID).desktop</launchable>"))
        #expect(metainfo.contains("<binary>pipcam</binary>"))
        let desktop = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(desktop.contains("\nIcon=pipcam\n") && desktop.contains("\nExec=pipcam\n"))
        // The icon in every size the entry's name finds, each really that size.
        for size in [48, 128, 256] {
            let identify = try runChecked(["identify", "-format", "%wx%h", Self.root + "/assets/pipcam-\(size).png"])
            #expect(identify.stdoutText == "\(size)x\(size)")
        }
    }

    @Test func makeInstallPutsExactlyThePackagesFilesUnderThePrefix() throws {
        let prefix = try Scratch.makeDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let binary = try Pipcam.binaryPath()
        let result = try run(
            ["make", "-s", "-C", Self.root, "install", "PREFIX=\(prefix)", "BIN=\(binary)"], timeout: .seconds(30))
        #expect(result.exitCode == 0, "\(result)")
        #expect(try Self.files(under: prefix) == Self.installedFiles(zshDirectory: "site-functions"))
        let version = try runChecked([binary, "--version"]).stdoutText.trimmingCharacters(in: .newlines)
        let manHeader = try runChecked(["sh", "-c", "zcat \"$0\" | head -1", prefix + "/share/man/man1/pipcam.1.gz"])
        #expect(manHeader.stdoutText.contains("\"pipcam \(version)\" \"User Commands\""), "\(manHeader)")
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/pipcam", encoding: .utf8)
        #expect(!bash.hasPrefix("#!"), "a sourced script has no #! line")
        #expect(try run([prefix + "/bin/pipcam", "--help"]).exitCode == 0)
    }

    /// bash and fish complete option names and values from the scripts the packages install; zsh's
    /// loads and defines its completion function.
    @Test func completionsComplete() throws {
        let binary = try Pipcam.binaryPath()
        let directory = try Scratch.makeDirectory("completions")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for shell in ["bash", "zsh", "fish"] {
            try runChecked([binary, "--generate-completion-script", shell]).stdoutText
                .write(toFile: "\(directory)/\(shell)", atomically: true, encoding: .utf8)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        func bash(_ words: [String]) throws -> [String] {
            let line = (words + [""]).joined(separator: " ")
            let script = """
                source "$1"; COMP_WORDS=(\(words.joined(separator: " ")) ""); COMP_CWORD=\(words.count)
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _pipcam pipcam "" \(words.last!); printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try runChecked(["bash", "-c", script, "bash", "\(directory)/bash"], environment: environment)
                .stdoutText.split(separator: "\n").map(String.init)
        }
        #expect(try bash(["pipcam", "--corner"]) == ["top-left", "top-right", "bottom-left", "bottom-right", "auto"])
        #expect(try bash(["pipcam", "--auto-pip"]) == ["hidden", "minimize", "never"])
        #expect(try bash(["pipcam", "--source"]).starts(with: ["auto", "test"]))
        #expect(try bash(["pipcam"]).contains("toggle"))

        func fish(_ line: String) throws -> [String] {
            try runChecked(["fish", "--no-config", "-c", "source $argv[1]; complete -C '\(line)'", "\(directory)/fish"],
                           environment: environment)
                .stdoutText.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try fish("pipcam --shape ") == ["circle", "rect", "rounded"] || fish("pipcam --shape ") == ["rect", "rounded", "circle"])
        #expect(try fish("pipcam --sha").contains("--share-size"))
        #expect(try fish("pipcam --source ").starts(with: ["auto", "test"]))

        let zsh = try run(["zsh", "-f", "-c", "autoload -U compinit && compinit -u -D && source \"$1\" && whence -w _pipcam",
                           "zsh", "\(directory)/zsh"], environment: environment)
        #expect(zsh.exitCode == 0 && zsh.stdoutText.contains("_pipcam: function"), "\(zsh)")
    }

    /// packaging/installed-files: every file an installation holds, relative to its prefix.
    static func installedFiles(zshDirectory: String) throws -> [String] {
        try String(contentsOfFile: root + "/packaging/installed-files", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.replacingOccurrences(of: "ZSH", with: zshDirectory) }.sorted()
    }

    static func files(under directory: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }
}
