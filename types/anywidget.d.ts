// posenc-lab/anywidget: <posenc-lab> as an anywidget-style widget (dist/anywidget.mjs).

/** The part of an anywidget (Backbone) model the widget uses. */
export interface WidgetModel {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  on(event: string, callback: () => void): void;
  off(event: string, callback: () => void): void;
  save_changes(): void;
}

declare const widget: {
  /**
   * Mounts a <posenc-lab> in el. Model keys are the element's attributes with "_" for "-"
   * (sentence, schemes, eval_length, vectors_src, …); those the model has are synced both ways.
   * Returns the cleanup function.
   */
  render(context: { model: WidgetModel; el: HTMLElement }): () => void;
};
export default widget;
