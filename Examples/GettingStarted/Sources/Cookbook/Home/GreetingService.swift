import Foundation

/// The greeting's rule, a service's business: it depends on the hour.
public struct GreetingService: Sendable {
    let hour: @Sendable () -> Int

    /// Greets by `hour` (0–23), the current one by default.
    public init(hour: @escaping @Sendable () -> Int = { Calendar.current.component(.hour, from: Date()) }) {
        self.hour = hour
    }

    /// The greeting for now.
    func greeting() -> Greeting {
        switch hour() {
        case 5..<12: Greeting(text: "Good morning")
        case 12..<18: Greeting(text: "Good afternoon")
        default: Greeting(text: "Good evening")
        }
    }
}
