import Testing
@testable import VitalsStatistics
