import Foundation
import Synchronization

/// The time of day every time window of a server is measured by: sessions and invitation links
/// expiring, the sign-in slowdown's waits, idempotency keys forgotten, idle books released, staged
/// uploads given up. The system's clock by default (``SystemClock``); a test gives a
/// ``ManualClock`` and moves it, so that no test waits for — or races — real time.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that moves only when told: for tests and simulations.
///
/// ```swift
/// let clock = ManualClock()
/// var configuration = WebConfiguration()
/// configuration.clock = clock
/// clock.advance(by: .seconds(3600))   // an hour later, at once
/// ```
public final class ManualClock: WallClock {
    private let instant: Mutex<Date>

    /// A clock that starts at `now` (the system's time by default).
    public init(_ now: Date = Date()) {
        instant = Mutex(now)
    }

    public var now: Date { instant.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative duration).
    public func advance(by duration: Duration) {
        instant.withLock { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's dates count them.
    public var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
