"""What each control means, in a sentence or two, with the source of the technique.

The job's settings say it in their declarations (``advisor.core.job.settings``: ``Setting.tooltip``);
here only the model box's controls, which are not job settings."""

TIPS: dict[str, str] = {
    "model": "The model to fit. Presets come from published config.json files (catalog/models/); "
             "type to search.",
    "generic": "Any size: a generic dense decoder of this many parameters, shaped like the Llama "
               "family (hidden size, layers and heads scaled together). Good for 'how big could I go?'.",
    "import": "Open a Hugging Face config.json, a model folder or a .gguf file; its architecture is read "
              "and stored in the comparison so the file stands alone. You can also drop one on the window.",
}
