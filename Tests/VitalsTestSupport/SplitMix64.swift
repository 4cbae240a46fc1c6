// Test inputs use the simulator's SplitMix64 (Steele, Lea & Flood 2014): a fixed-seed generator,
// identical on every platform, so every random test input is reproducible.
@_exported import struct VitalsSimulation.SplitMix64
