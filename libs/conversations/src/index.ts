export { ConversationsModule } from './conversations.module';
export { StoredAnswersService } from './stored-answers.service';
