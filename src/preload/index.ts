// The preload bridge (issue 4) will expose a few typed functions; nothing is exposed yet.
export {};
