import Loupe
import LoupeCore

/// `TestStore` with TCA's case key paths (``CasePathable``), on any `Action`, `Equatable` or
/// not: `receive(\.factResponse.success)`, `send(\.rows[id: 2].addTapped)`.
extension TestStore where Action: CasePathable {
  /// Sends the action at `casePath`, a case without a payload: `await store.send(\.alert.dismiss)`.
  @discardableResult
  public func send(
    _ casePath: CaseKeyPath<Action, Void>,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      Action.casePath(casePath).embed(()), assert: assert, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends the action at `casePath` with `value`: `await store.send(\.rows[id: 2].renamed, "Milk")`.
  @discardableResult
  public func send<Value>(
    _ casePath: CaseKeyPath<Action, Value>, _ value: Value,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      Action.casePath(casePath).embed(value), assert: assert, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Asserts that an effect sent an action of the case at `casePath` (any payload):
  /// `await store.receive(\.factResponse.success) { $0.fact = "…" }`.
  public func receive<Value>(
    _ casePath: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      Action.casePath(casePath), timeout: timeout, assert: assert, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Asserts that an effect sent the action at `casePath` with `value`:
  /// `await store.receive(\.factResponse.success, "42 is a number") { … }`.
  public func receive<Value: Equatable>(
    _ casePath: CaseKeyPath<Action, Value>, _ value: Value,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let path = Action.casePath(casePath)
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let expected = path.embed(value)
    await receive(
      TestStoreMessages.label(expected), matching: { path.extract($0) == value }, timeout: timeout, assert: assert,
      at: site, mismatch: { TestStoreMessages.unexpectedAction(expected: expected, actual: $0) })
  }
}
