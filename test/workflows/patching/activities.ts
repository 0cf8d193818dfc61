// Activity types of the patching example (docs/workflows.md, "Changing workflow code").
export interface ReminderActivities {
  notify(name: string): Promise<string>;
  audit(name: string): Promise<string>;
}
