#if canImport(SwiftUI)
import SwiftUI

// Written against Apple's declarations (`withAnimation(_:_:)`); not compiled on Linux, where
// the package is built and tested.

extension Store {
  /// Sends `action` inside `withAnimation(animation)`: the state changes it makes animate
  /// (TCA's `send(_:animation:)`).
  @discardableResult
  public func send(
    _ action: Action, animation: Animation?,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> StoreTask {
    withAnimation(animation) {
      send(action, fileID: fileID, filePath: filePath, line: line)
    }
  }
}

extension Send {
  /// Sends `action` from an effect inside `withAnimation(animation)`:
  /// `await send(.sortCompletedTodos, animation: .default)`.
  public func callAsFunction(_ action: Action, animation: Animation?) {
    withAnimation(animation) {
      self(action)
    }
  }
}
#endif
