// The umbrella module: `import Vitals` gives the whole public API.
@_exported import VitalsCore
@_exported import VitalsFFT
@_exported import VitalsIO
@_exported import VitalsSimulation
@_exported import VitalsAnalysis
@_exported import VitalsStatistics
@_exported import VitalsPipeline
@_exported import VitalsReport
