// The host context the test host gives a View: the theme and the spec's standardized style variables (a
// host's palette, as claude.ai passes its own), so a View that follows the host's theme can be seen to.
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

export type Theme = "light" | "dark";

const PALETTES: Record<Theme, Record<string, string>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f5f4ef",
    "--color-text-primary": "#1f1e1d",
    "--color-text-secondary": "#5e5d59",
    "--color-border-primary": "#d6d3cb",
    "--color-ring-primary": "#c96442",
    "--color-text-danger": "#b3261e",
  },
  dark: {
    "--color-background-primary": "#262624",
    "--color-background-secondary": "#30302e",
    "--color-text-primary": "#f5f4ef",
    "--color-text-secondary": "#bfbdb6",
    "--color-border-primary": "#4a4945",
    "--color-ring-primary": "#d97757",
    "--color-text-danger": "#f2b8b5",
  },
};

export function hostContextFor(theme: Theme): McpUiHostContext {
  return {
    theme,
    styles: {
      variables: {
        ...PALETTES[theme],
        "--font-sans": "system-ui, sans-serif",
        "--border-radius-md": "8px",
      } as never,
    },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    platform: "web",
    locale: "en-US",
    containerDimensions: { maxHeight: 4000 },
  };
}
