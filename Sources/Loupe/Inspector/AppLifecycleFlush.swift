import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// An app the system suspends (and may later kill without `exit`, so no `atexit` handler
/// runs) must not lose its recording: on UIKit platforms (iOS, iPadOS, tvOS, visionOS, Mac
/// Catalyst) the recording is flushed when the app resigns active and when it enters the
/// background (CONTRACT §14). Elsewhere, and on watchOS (no `UIApplication`), call
/// ``Inspector/flushRecording(timeout:)`` yourself where your app saves its state.
enum AppLifecycleFlush {
  /// Flushes `inspector`'s recordings at those moments, for as long as it lives.
  static func watch(_ inspector: Inspector) {
    #if canImport(UIKit) && !os(watchOS)
      Task { @MainActor [weak inspector] in
        guard let inspector else { return }
        observe(inspector)
      }
    #endif
  }

  #if canImport(UIKit) && !os(watchOS)
    @MainActor private static func observe(_ inspector: Inspector) {
      for name in [UIApplication.willResignActiveNotification, UIApplication.didEnterBackgroundNotification] {
        _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak inspector] _ in
          // Within the few seconds iOS gives an app that enters the background.
          _ = inspector?.flushRecordings(timeout: .seconds(1))
        }
      }
    }
  #endif
}
