// Placeholder so the target builds; replaced by the module's first real file.
