// The VitalsPipeline module; its files replace this placeholder.
