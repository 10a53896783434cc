import { ConversationMessageEntity } from './conversation-message.entity';
import { ItemEntity } from './item.entity';
import { ThreadEntity } from './thread.entity';
import { TurnEntity } from './turn.entity';

export { ConversationMessageEntity, ItemEntity, ThreadEntity, TurnEntity };

/** Every entity of the App Server store, for the DataSource. */
export const APP_SERVER_ENTITIES = [ThreadEntity, TurnEntity, ItemEntity, ConversationMessageEntity];
