import Testing
@testable import VitalsPipeline
