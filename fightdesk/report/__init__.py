"""Round and fight summaries as documents (HTML, Markdown); no widgets."""
