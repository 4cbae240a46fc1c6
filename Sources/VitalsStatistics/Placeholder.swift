// The VitalsStatistics module; its files replace this placeholder.
