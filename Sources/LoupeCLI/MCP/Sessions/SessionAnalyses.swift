import LoupeCore
import LoupeSession

/// `loupe_doctor`'s and `loupe_stats`' analyses of an MCP session, over the session's own
/// ``SessionModel``: each is fed, once, the events it has not seen yet when a tool asks, so a
/// call costs the events that came since the last one, not a reading of the whole trace.
/// Lives inside ``SharedModel``, under its lock.
struct SessionAnalyses {
  private var doctorSoFar = Doctor()
  private var doctorFed = 0
  private var statisticsSoFar = TraceStatistics()
  private var statisticsFed = 0

  /// The doctor over every event of `model` (state changes, which no check needs, counted
  /// without being read back, as ``Doctor/examine(_:progress:)`` does).
  mutating func doctor(over model: SessionModel) -> Doctor {
    while doctorFed < model.count {
      if model.kind(at: doctorFed) == .change {
        doctorSoFar.skip(seq: model.seq(at: doctorFed))
      } else {
        doctorSoFar.add(model.event(at: doctorFed))
      }
      doctorFed += 1
    }
    return doctorSoFar
  }

  /// The statistics of every event of `model`.
  mutating func statistics(over model: SessionModel) -> TraceStatistics {
    while statisticsFed < model.count {
      statisticsSoFar.add(model.event(at: statisticsFed))
      statisticsFed += 1
    }
    return statisticsSoFar
  }
}
