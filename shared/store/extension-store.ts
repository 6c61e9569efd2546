import type { ExtensionAction } from '../domain/extensions/actions';
import type { ExtensionBinding } from '../domain/extensions/binding';

/**
 * Where the projects' extension bindings live (one per project and action). The DynamoDB adapter
 * is the one implementation; the service reads it, the CLI (`npm run extension`) writes it.
 */
export interface ExtensionStore {
  get(projectKey: string, action: ExtensionAction): Promise<ExtensionBinding | undefined>;
  /** Creates or replaces the project's binding of the action. */
  put(binding: ExtensionBinding): Promise<void>;
  /** Removes the binding; false when there was none. */
  delete(projectKey: string, action: ExtensionAction): Promise<boolean>;
  /** The bindings of one project, or of every project. */
  list(projectKey?: string): Promise<ExtensionBinding[]>;
}
