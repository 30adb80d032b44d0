import Foundation

/// Reports a problem the program found about itself, such as a dependency's test value
/// called where the test did not expect it (TCA's `reportIssue`).
///
/// Under a `TestStore` (LoupeTesting), in its feature's reducer and effects, it fails the
/// test, at the test's next assertion. Anywhere else it is written to standard error.
public func reportIssue(
  _ message: @autoclosure () -> String = "", fileID: StaticString = #fileID, line: UInt = #line
) {
  let text = message()
  if let reporter = DependencyValues.current.reportIssue {
    reporter(text)
  } else {
    FileHandle.standardError.write(Data("Issue reported at \(fileID):\(line): \(text)\n".utf8))
  }
}

/// The error an unimplemented throwing closure throws after reporting its issue.
public struct UnimplementedFailure: Error, Equatable, Sendable {
  public let description: String
}

/// A closure that reports an issue when called, then returns `placeholder`: the test value of
/// a client's endpoint that a test must not reach (what TCA's `@DependencyClient` writes).
///
/// ```swift
/// extension AuthenticationClient: DependencyKey {
///   static let testValue = Self(login: unimplemented("AuthenticationClient.login"))
/// }
/// ```
public func unimplemented<each Argument, Result>(
  _ description: String = "", placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) -> Result {
  return { (_: repeat each Argument) in
    reportIssue("Unimplemented: \(description)", fileID: fileID, line: line)
    return placeholder()
  }
}

/// An async closure that reports an issue when called, then returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: String = "", placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) async -> Result {
  return { (_: repeat each Argument) in
    reportIssue("Unimplemented: \(description)", fileID: fileID, line: line)
    return placeholder()
  }
}

/// A throwing closure that reports an issue when called, then throws ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: String = "", fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) throws -> Result {
  return { (_: repeat each Argument) in
    reportIssue("Unimplemented: \(description)", fileID: fileID, line: line)
    throw UnimplementedFailure(description: description)
  }
}

/// An async throwing closure that reports an issue when called, then throws
/// ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: String = "", fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) async throws -> Result {
  return { (_: repeat each Argument) in
    reportIssue("Unimplemented: \(description)", fileID: fileID, line: line)
    throw UnimplementedFailure(description: description)
  }
}
