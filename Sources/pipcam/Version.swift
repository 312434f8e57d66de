/// pipcam's version: the one place it is written. `pipcam --version` prints it; `make deb`, `make dist`
/// and `make install` ask the built binary for it (package name, the man page's header), and the
/// tests hold CHANGELOG.md's newest entry and the AppStream release to it.
let pipcamVersion = "0.1.0"
