import Loupe

// The few SwiftUI types the ported examples' reducers keep in state or pass to `send`, for
// Linux, where SwiftUI is not there. On Apple platforms SwiftUI's own are used (and Loupe's
// `send(_:animation:)`).
#if !canImport(SwiftUI)
/// SwiftUI's `EditMode`.
enum EditMode: Hashable, Sendable {
  case inactive
  case transient
  case active
}

/// SwiftUI's `Animation`, as far as `send(_:animation:)` takes one.
struct Animation: Sendable {
  static let `default` = Animation()
}

extension Send {
  /// Sends `action`; there is nothing to animate without SwiftUI.
  func callAsFunction(_ action: Action, animation: Animation?) {
    self(action)
  }
}
#else
import SwiftUI
#endif
