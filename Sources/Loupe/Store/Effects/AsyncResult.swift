extension Result where Failure == any Error {
  /// The result of async work, as TCA spells it in effects:
  /// `await send(.factResponse(Result { try await client.fetch() }))`.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
