// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which differs between checkouts.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().standardized
let pipcam = root.lastPathComponent.lowercased()

let package = Package(
    name: "ConvertBench",
    dependencies: [.package(path: root.path)],
    targets: [.executableTarget(name: "bench", dependencies: [
        .product(name: "PipWindow", package: pipcam), .product(name: "PipConvert", package: pipcam),
        .product(name: "CameraSource", package: pipcam),
        .product(name: "PipCore", package: pipcam), .product(name: "MJPEG", package: pipcam)])]
)
