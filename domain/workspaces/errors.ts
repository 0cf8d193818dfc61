// The workspace commands' refusals, one factory each.
import { DomainError } from '../errors';

export const workspaceNotFound = (workspaceId: string) => new DomainError('not_found', 'workspace_not_found', `Workspace ${workspaceId} does not exist`);
