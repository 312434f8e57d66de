// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// What the package builds. The sanitizer runs (`make test-sanitizers`) test the pure and
/// fake-device tiers only, so they need not compile what they never run: `PIPCAM_BUILD_SCOPE=units`
/// leaves out the X integration tests and the executables they start, `=camera` also the window
/// and program libraries (X11 and Wayland) and the conversion tests (ThreadSanitizer tests the
/// camera side; the share converts with `PipConvert`, so that library stays). Unset: everything.
let scope = ProcessInfo.processInfo.environment["PIPCAM_BUILD_SCOPE"] ?? "all"
let leftOut: Set<String> = switch scope {
case "units": ["IntegrationTests", "CVirtualPointer", "pipcam", "pip-example"]
case "camera": [
    "IntegrationTests", "CVirtualPointer", "pipcam", "pip-example", "PipConvertTests", "PipWindowTests", "PipcamAppTests", "PipWindow", "PipcamApp",
    "PipControl", "PipControlTests", "CWayland", "PipWayland", "PipWaylandTests",
]
default: []
}

let package = Package(
    name: "pipcam",
    products: [
        .executable(name: "pipcam", targets: ["pipcam"]),
        .library(name: "PipCore", targets: ["PipCore"]),
        .library(name: "MJPEG", targets: ["MJPEG"]),
        .library(name: "PipConvert", targets: ["PipConvert"]),
        .library(name: "CameraSource", targets: ["CameraSource"]),
        .library(name: "PipWindow", targets: ["PipWindow"]),
        .library(name: "PipControl", targets: ["PipControl"]),
        .library(name: "PipcamApp", targets: ["PipcamApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CX11", pkgConfig: "x11 xext xinerama xrandr",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxinerama-dev", "libxrandr-dev"])]),
        .systemLibrary(
            name: "CV4L2", pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        // PipeWire's headers at build time only: the shim loads libpipewire when a PipeWire camera is
        // used. They are reached through links in Sources/CPipeWire/system to where every
        // distribution's -dev packages put them: a pkg-config system library would also link
        // libpipewire, and unsafeFlags would keep other packages from depending on this one.
        .target(
            name: "CPipeWire",
            cSettings: [.headerSearchPath("system")],
            linkerSettings: [.linkedLibrary("dl")]),
        // libdbus-1 loaded at run time: MPRIS (media keys, playerctl) while a file plays.
        .target(name: "CDBus", linkerSettings: [.linkedLibrary("dl")]),
        // libwayland-client loaded at run time: what a Wayland compositor offers. Its headers
        // (libwayland-dev) are in the standard include directory.
        .target(name: "CWayland", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "PipCore"),
        .target(name: "MJPEG", dependencies: ["CTurboJPEG", "PipCore"]),
        // Pictures converted, scaled, turned and fitted: no window system's, so the X11 library and
        // the share both use it.
        .target(name: "PipConvert", dependencies: ["PipCore", "MJPEG"]),
        .target(name: "CameraSource", dependencies: ["CV4L2", "CPipeWire", "PipCore", "MJPEG", "PipConvert"]),
        .target(name: "PipWindow", dependencies: ["CX11", "PipCore", "MJPEG", "PipConvert"]),
        // What a Wayland compositor offers, which window system PiP takes, and PiP's layer-shell
        // overlay surface (its pictures in PipWindow's seam's terms).
        .target(name: "PipWayland", dependencies: ["CWayland", "PipWindow", "PipConvert", "PipCore"]),
        // The control requests and the socket they travel on: no window system.
        .target(name: "PipControl", dependencies: ["CameraSource", "PipCore"]),
        .target(name: "PipcamApp", dependencies: ["PipWindow", "PipWayland", "PipControl", "PipConvert", "CameraSource", "PipCore", "MJPEG", "CDBus"]),
        .executableTarget(
            name: "pipcam",
            dependencies: [
                "PipcamApp", "PipWindow", "PipWayland", "PipControl", "PipConvert", "CameraSource", "PipCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "pip-example", dependencies: ["PipWindow", "CameraSource", "PipCore"], path: "Examples/PipExample"),
        // What every test target shares: the seeded random generator, waiting, the scratch directory.
        .target(name: "TestSupport", dependencies: ["CameraSource", "PipCore", "CTurboJPEG"], path: "Tests/TestSupport"),
        .testTarget(name: "PipCoreTests", dependencies: ["PipCore"]),
        .testTarget(name: "MJPEGTests", dependencies: ["MJPEG", "PipCore", "CTurboJPEG", "TestSupport"]),
        .testTarget(name: "CameraSourceTests", dependencies: ["CameraSource", "PipCore", "MJPEG", "CTurboJPEG", "TestSupport"]),
        .testTarget(name: "PipConvertTests", dependencies: ["PipConvert", "CameraSource", "PipCore", "MJPEG", "CTurboJPEG", "TestSupport"]),
        .testTarget(name: "PipWindowTests", dependencies: ["PipWindow", "PipConvert", "CameraSource", "PipCore", "TestSupport"]),
        .testTarget(name: "PipWaylandTests", dependencies: ["PipWayland", "PipWindow", "PipCore"]),
        .testTarget(name: "PipControlTests", dependencies: ["PipControl", "CameraSource", "PipCore", "TestSupport"]),
        .testTarget(name: "PipcamAppTests", dependencies: ["PipcamApp", "PipWindow", "PipControl", "PipConvert", "CameraSource", "PipCore", "TestSupport"]),
        // A pointer the Wayland tests drive on sway (wlr-virtual-pointer), libwayland-client loaded at run time.
        .target(name: "CVirtualPointer", path: "Tests/CVirtualPointer", linkerSettings: [.linkedLibrary("dl")]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "pipcam", "pip-example", "PipcamApp", "PipWindow", "PipWayland", "PipControl", "PipConvert", "CameraSource", "PipCore",
                "TestSupport", "CVirtualPointer",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
package.targets.removeAll { leftOut.contains($0.name) }
package.products.removeAll { leftOut.contains($0.name) }
