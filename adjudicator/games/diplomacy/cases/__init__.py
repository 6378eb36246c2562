"""Case files: the DATC plain-text format (and its project extensions) and the runner that checks them."""
