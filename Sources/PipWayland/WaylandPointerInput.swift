import PipCore
import PipWindow

/// What the compositor said the pointer did over one surface, as it said it: positions
/// surface-local in `wl_fixed` (24.8 fixed point), buttons as Linux input codes.
struct WaylandPointerEvent: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case entered, left, motion
        case button(code: UInt32, pressed: Bool)
        /// A scroll: `vertical` (positive: down) or horizontal (positive: right); `value` in
        /// `wl_fixed`, `discrete` the wheel's steps when the compositor said them (else 0).
        case axis(vertical: Bool, value: Int32, discrete: Int32)
    }

    var kind: Kind
    /// Milliseconds, of a base of the compositor's own.
    var time: UInt32
    var x: Int32, y: Int32
}

/// The pointer's events in the seat's vocabulary (`InputEvent`, as X reports them): buttons 1–3
/// and the wheel as presses of 4–7, positions in whole pixels in the window (`x`, `y`) and on the
/// output (`rootX`, `rootY`). Pure: the surface's place is passed in.
///
/// A surface-local position becomes an output one through the surface's origin. While a button is
/// held, which origin depends on the compositor (`HeldPointer`): sway keeps reporting a held
/// pointer from where the surface was when the button went down, KWin from where it is now; a
/// drag that moved the surface must not count its own move twice, nor lose it.
///
/// Only enter and motion say where the pointer is; a button or the wheel is where the last of them
/// put it on the output, and in the window as it is now: pipcam may have moved the surface under
/// a still pointer since (a zoom), and the compositor says so only at the pointer's next move.
struct WaylandPointerInput {
    /// What a compositor counts a held pointer's surface-local positions from.
    enum HeldPointer: Sendable, Equatable {
        /// The surface's origin at the press, the pointer's travel added (wlroots' `seatop_down`:
        /// sway; seen on sway 1.7).
        case fromPressOrigin
        /// The surface's origin as it is (KWin, whose seat takes a window's new place at once
        /// outside its own moves; seen on KWin 5.27).
        case fromCurrentOrigin
    }

    /// This compositor's rule.
    let held: HeldPointer
    /// The wheel's travel (in the compositor's scroll units) taken as one step when it does not
    /// count steps itself (a touchpad): libinput's and weston's unit for one notch.
    static let unitsPerStep = 10.0

    /// Buttons held, as X's state mask (Button1Mask = 1 << 8 …).
    private(set) var state: UInt32 = 0
    /// The surface's origin at the press, while a button is held.
    private(set) var pressOrigin: (x: Int, y: Int)?
    /// Where enter or motion last put the pointer on the output, while it is over the surface.
    private(set) var lastRoot: (x: Int, y: Int)?
    /// Scroll travel not yet a whole step, per axis (vertical, horizontal).
    private var rest = (0.0, 0.0)

    init(held: HeldPointer = .fromPressOrigin) { self.held = held }

    /// A `wl_fixed` value in pixels.
    static func pixels(_ fixed: Int32) -> Double { Double(fixed) / 256 }

    /// The whole pixel a `wl_fixed` position is in (rounded down, as X's are).
    static func pixel(_ fixed: Int32) -> Int { Int(fixed >> 8) }

    /// X's number for a Linux button code (linux/input-event-codes.h); nil for others.
    static func xButton(_ code: UInt32) -> Int? {
        switch code {
        case 0x110: 1  // BTN_LEFT
        case 0x112: 2  // BTN_MIDDLE
        case 0x111: 3  // BTN_RIGHT
        case 0x113: 8  // BTN_SIDE: back
        case 0x114: 9  // BTN_EXTRA: forward
        default: nil
        }
    }

    /// X's mask bit for a button held (buttons 1–5 have one).
    static func mask(_ button: Int) -> UInt32 { (1...5).contains(button) ? 1 << UInt32(7 + button) : 0 }

    /// X's wheel button for a step: 4 up, 5 down, 6 left, 7 right.
    static func wheelButton(vertical: Bool, forward: Bool) -> Int {
        vertical ? (forward ? 5 : 4) : (forward ? 7 : 6)
    }

    /// The events `event` means on `window`, whose origin on the output is `origin` now.
    mutating func translate(_ event: WaylandPointerEvent, window: WindowID, origin: (x: Int, y: Int)) -> [InputEvent] {
        let from = pressOrigin ?? origin
        let said = (x: from.x + Self.pixel(event.x), y: from.y + Self.pixel(event.y))
        switch event.kind {
        case .entered, .motion: lastRoot = said
        default: break
        }
        let root = lastRoot ?? said
        func pointer(_ button: Int) -> PointerEvent {
            PointerEvent(
                window: window, button: button, x: root.x - origin.x, y: root.y - origin.y, rootX: root.x, rootY: root.y,
                time: UInt(event.time), state: state)
        }
        switch event.kind {
        case .entered:
            return [.entered]
        case .left:
            // Nothing more comes to this surface until the pointer is back: a button held now is
            // released elsewhere.
            (state, pressOrigin, lastRoot) = (0, nil, nil)
            return [.left]
        case .motion:
            return [.motion(pointer(0))]
        case .button(let code, let pressed):
            guard let button = Self.xButton(code) else { return [] }
            let p = pointer(button)
            if pressed {
                if state == 0 && held == .fromPressOrigin { pressOrigin = origin }
                state |= Self.mask(button)
                return [.press(p)]
            }
            state &= ~Self.mask(button)
            if state == 0 { pressOrigin = nil }
            return [.release(p)]
        case .axis(let vertical, let value, let discrete):
            let steps: Int
            if discrete != 0 {
                steps = Int(discrete)
            } else {
                let travel = (vertical ? rest.0 : rest.1) + Self.pixels(value) / Self.unitsPerStep
                steps = Int(travel)  // toward zero: what is left waits for more
                if vertical { rest.0 = travel - Double(steps) } else { rest.1 = travel - Double(steps) }
            }
            let p = pointer(Self.wheelButton(vertical: vertical, forward: steps > 0))
            return Array(repeating: [InputEvent.press(p), .release(p)], count: abs(steps)).flatMap { $0 }
        }
    }
}
